-- Shared prelude of every provider script (prepended by script_text(); see docs/redis.md).
-- ARGV[1] is always the namespace. Every key a script touches starts with it.
local ns = ARGV[1]
assert(ns ~= nil and #ns > 0, 'namespace argument missing')

-- Store time: the server's TIME in Unix epoch milliseconds.
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Decimal text of a non-negative integral Lua number (never exponent notation).
local function dstr(x)
  return string.format('%.0f', x)
end

-- Key names (docs/redis.md, "Key layout").
local function rec_key(sha) return ns .. 'rec:' .. sha end
local function hist_key(sha) return ns .. 'hist:' .. sha end
local function old_key(sha, ver) return ns .. 'old:' .. sha .. ':' .. ver end
local idx_key = ns .. 'idx'
local seq_key = ns .. 'seq'
local scans_key = ns .. 'scans'
local scansnap_key = ns .. 'scansnap'
local gcq_key = ns .. 'gcq'

-- An index member is escape(logical key) .. '\0\1' .. sha256hex(logical key): the sha is its tail.
local function member_sha(member)
  return string.sub(member, -64)
end

-- ---- Open scans ----------------------------------------------------------------------------
-- scans: id -> expiry (store ms); scansnap: id -> snapshot sequence. Drops a bounded number of
-- expired scans per call; expired scans not dropped yet only keep history a little longer.
local function scans_clean(now)
  local expired = redis.call('ZRANGEBYSCORE', scans_key, '-inf', dstr(now), 'LIMIT', 0, 64)
  for _, id in ipairs(expired) do
    redis.call('ZREM', scans_key, id)
    redis.call('ZREM', scansnap_key, id)
  end
end

-- Lowest and highest snapshot of the open scans; nil, nil when no scan is open.
local function snapshot_bounds()
  local lo = redis.call('ZRANGE', scansnap_key, 0, 0, 'WITHSCORES')
  if #lo == 0 then
    return nil, nil
  end
  local hi = redis.call('ZRANGE', scansnap_key, -1, -1, 'WITHSCORES')
  return tonumber(lo[2]), tonumber(hi[2])
end

-- ---- History (MVCC) ------------------------------------------------------------------------
-- hist:<sha> is a ZSET of superseded versions (score = version); old:<sha>:<ver> is a copy of the
-- record hash {v, ver} plus d = the sequence at which it stopped being current. A scan with
-- snapshot S sees an old version iff ver <= S < d. An entry no open scan can see (d <= lowest
-- open snapshot, or no scan open) is garbage. Removes at most `budget` entries; returns true
-- when the key's history is empty afterwards.
local function purge_history(sha, min_snap, budget)
  local hk = hist_key(sha)
  for _ = 1, budget do
    local first = redis.call('ZRANGE', hk, 0, 0)
    if #first == 0 then
      return true
    end
    local ok = old_key(sha, first[1])
    local dead = tonumber(redis.call('HGET', ok, 'd'))
    if min_snap ~= nil and dead ~= nil and dead > min_snap then
      return false
    end
    redis.call('UNLINK', ok)
    redis.call('ZREM', hk, first[1])
  end
  return redis.call('EXISTS', hk) == 0
end

-- After the history of `member` shrank: forget the key entirely once nothing of it is left.
local function settle_key(member, history_empty)
  if not history_empty then
    return
  end
  redis.call('ZREM', gcq_key, member)
  if redis.call('EXISTS', rec_key(member_sha(member))) == 0 then
    redis.call('ZREM', idx_key, member)
  end
end

-- Collects the history of at most max_keys keys whose every old version is garbage.
local function collect(min_snap, max_keys)
  local upto = '+inf'
  if min_snap ~= nil then
    upto = dstr(min_snap)
  end
  local due = redis.call('ZRANGEBYSCORE', gcq_key, '-inf', upto, 'LIMIT', 0, max_keys)
  for _, member in ipairs(due) do
    settle_key(member, purge_history(member_sha(member), min_snap, 64))
  end
end
