-- Shared prelude of every provider script (prepended by script_text(); see docs/redis.md).
-- ARGV[1] is always the namespace. Every key a script touches starts with it.
local ns = ARGV[1]
assert(ns ~= nil and #ns > 0, 'namespace argument missing')
-- KEYS name keys under the namespace (a cluster routes the call by them; with a hash-tagged
-- namespace every key the script builds from ns is in their slot).
for _, key in ipairs(KEYS) do
  assert(string.sub(key, 1, #ns) == ns, 'a key outside the namespace')
end

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
local scanseq_key = ns .. 'scanseq'

-- ---- No partial effect (docs/redis.md) -------------------------------------------------------
-- Redis does not undo a script's writes when a later command fails. So a script first checks
-- every key it may write (and every key it reads after its first write): its type, and the
-- content a command could refuse. Once the checks pass, no command of the script can fail.
local function type_of(key)
  return redis.call('TYPE', key)['ok']
end

-- An error text when `key` exists with another type than `want`, else nil.
local function layout_error(key, want)
  local t = type_of(key)
  if t ~= 'none' and t ~= want then
    return 'LAYOUT ' .. key .. ' is a ' .. t .. ', not a ' .. want .. '; nothing was changed'
  end
  return nil
end

-- An error text unless `key` is absent or a sequence INCRBY n keeps exact (below 2^53).
local function sequence_error(key, n)
  local bad = layout_error(key, 'string')
  if bad then
    return bad
  end
  local text = redis.call('GET', key)
  if not text or ((text == '0' or string.match(text, '^[1-9]%d*$')) and #text <= 16 and
                  tonumber(text) + n <= 9007199254740992) then
    return nil
  end
  return 'LAYOUT ' .. key .. ' is not a sequence below 2^53; nothing was changed'
end

-- The namespace-wide sorted sets every writing Location Store script may touch.
local function shared_layout_error()
  return layout_error(idx_key, 'zset') or layout_error(scans_key, 'zset') or layout_error(scansnap_key, 'zset') or
             layout_error(gcq_key, 'zset')
end

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
-- Collection never fails: a history or kept version of another type is left alone (and its key
-- stays in gcq), so a script that already wrote cannot fail here.
local function purge_history(sha, min_snap, budget)
  local hk = hist_key(sha)
  local history_type = type_of(hk)
  if history_type ~= 'zset' then
    return history_type == 'none'
  end
  for _ = 1, budget do
    local first = redis.call('ZRANGE', hk, 0, 0)
    if #first == 0 then
      return true
    end
    local ok = old_key(sha, first[1])
    local kept_type = type_of(ok)
    if kept_type ~= 'hash' and kept_type ~= 'none' then
      return false
    end
    local dead = nil
    if kept_type == 'hash' then
      dead = tonumber(redis.call('HGET', ok, 'd'))
    end
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
