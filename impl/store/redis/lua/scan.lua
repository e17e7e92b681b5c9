-- Location Store same-point-in-time scan page.
-- KEYS[1]: ns seq (routes the call). ARGV: ns, mode 'first'|'next'|'expired', ttl_ms, max_entries, max_bytes, examine_budget, lo, hi, id, snap
--   lo/hi are ZRANGE BYLEX bounds over index members; id/snap only for 'next'.
-- Returns {'expired', now}
--       | {'page', now, id, snap, done '1'|'0', last_examined_member, m1, v1, ver1, m2, ...}
-- Reads first (layout checks, the page), writes last (scan registry, collection): a script that
-- fails changes nothing (docs/redis.md, "No partial effect").
local now = now_ms()
if ARGV[2] == 'expired' then
  -- The caller already knows the continuation is not one of ours; it only needs StoreNow.
  return { 'expired', now }
end
local ttl_ms = tonumber(ARGV[3])
local max_entries = tonumber(ARGV[4])
local max_bytes = tonumber(ARGV[5])
local examine_budget = tonumber(ARGV[6])
local lo, hi = ARGV[7], ARGV[8]
local first = ARGV[2] == 'first'

local problem = shared_layout_error() or sequence_error(scanseq_key, 1) or sequence_error(seq_key, 0)
if problem then
  return redis.error_reply(problem)
end

local id, snap
if first then
  snap = redis.call('GET', seq_key) or '0'
else
  id, snap = ARGV[9], ARGV[10]
  local expiry = redis.call('ZSCORE', scans_key, id)
  local registered = redis.call('ZSCORE', scansnap_key, id)
  if not expiry or tonumber(expiry) <= now or not registered or tonumber(registered) ~= tonumber(snap) then
    redis.call('ZREM', scans_key, id)
    redis.call('ZREM', scansnap_key, id)
    return { 'expired', now }
  end
end
local s = tonumber(snap)

-- The version of the key behind `member` that was current at snapshot s, if any.
local function visible(member)
  local sha = member_sha(member)
  local cur = redis.call('HMGET', rec_key(sha), 'v', 'ver')
  if cur[2] and tonumber(cur[2]) <= s then
    return cur[1], cur[2]
  end
  local older = redis.call('ZREVRANGEBYSCORE', hist_key(sha), dstr(s), '-inf', 'LIMIT', 0, 1)
  if #older == 0 then
    return nil, nil
  end
  local old = redis.call('HMGET', old_key(sha, older[1]), 'v', 'd')
  if old[2] and tonumber(old[2]) > s then
    return old[1], older[1]
  end
  return nil, nil
end

-- Logical key length of a member: escape() doubles each zero byte; 66 = terminator + sha.
local function key_bytes(member)
  local escaped = string.sub(member, 1, #member - 66)
  local _, zeros = string.gsub(escaped, '%z', '')
  return #escaped - zeros
end

local entries = {}
local count, bytes, examined = 0, 0, 0
local cursor = lo
local last = ''
local done = false
-- Bound: every round examines up to 128 members or ends the range. The page ends at the first
-- visible entry that does not fit (count or bytes), so a continuation always leads to an entry;
-- or, once the page holds an entry, after examine_budget members.
while true do
  local batch = redis.call('ZRANGE', idx_key, cursor, hi, 'BYLEX', 'LIMIT', 0, 128)
  local stop = false
  for _, member in ipairs(batch) do
    local value, version = visible(member)
    if value then
      local size = key_bytes(member) + #value
      if count >= max_entries or (count > 0 and bytes + size > max_bytes) then
        stop = true
        break
      end
      entries[#entries + 1] = member
      entries[#entries + 1] = value
      entries[#entries + 1] = version
      count = count + 1
      bytes = bytes + size
    end
    last = member
    examined = examined + 1
    if count > 0 and examined >= examine_budget then
      stop = true
      break
    end
  end
  if stop then
    break
  end
  if #batch < 128 then
    done = true
    break
  end
  cursor = '(' .. last
end

-- Writes: the checks above passed and the page is read, so none of these can fail.
scans_clean(now)
if first then
  id = dstr(redis.call('INCR', scanseq_key))
end
if done then
  redis.call('ZREM', scans_key, id)
  redis.call('ZREM', scansnap_key, id)
else
  redis.call('ZADD', scans_key, dstr(now + ttl_ms), id)
  if first then
    redis.call('ZADD', scansnap_key, snap, id)
  end
end
local min_snap = snapshot_bounds()
collect(min_snap, 8)

local out = { 'page', now, id, snap, done and '1' or '0', last }
for i = 1, #entries do
  out[#out + 1] = entries[i]
end
return out
