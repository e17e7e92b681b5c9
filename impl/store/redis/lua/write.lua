-- Location Store write: layout checks, conditions, bounded increments, then mutations; all or
-- nothing (no command after the first write can fail).
-- KEYS[1]: ns seq (routes the call). ARGV: ns, ncond, ncond x {kind 'v'|'a', sha, expected version}, nmut,
--       nmut x {kind 'p'|'d'|'i', sha, member, value|delta, min, max}
-- Returns {'applied', now, ver1, counter1, ...} | {'conflict', now, reason 'v'|'b', index0}
--       | {'badcounter', now, index0}
local now = now_ms()

-- Exact signed 64-bit arithmetic on decimal text (Lua numbers are doubles).
local function int_parse(text)
  local sign, digits = string.match(text, '^(%-?)(%d+)$')
  if digits == nil then
    return nil
  end
  digits = string.match(digits, '^0*(%d-)$')
  if digits == '' then
    return { neg = false, mag = '0' }
  end
  if #digits > 19 then
    return nil
  end
  local neg = sign == '-'
  local limit = '9223372036854775807'
  if neg then
    limit = '9223372036854775808'
  end
  if #digits == 19 and digits > limit then
    return nil
  end
  return { neg = neg, mag = digits }
end

local function mag_cmp(a, b)
  if #a ~= #b then
    return (#a < #b) and -1 or 1
  end
  for i = 1, #a do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then
      return (x < y) and -1 or 1
    end
  end
  return 0
end

local function digits_text(out)
  local n = #out
  while n > 1 and out[n] == 0 do
    n = n - 1
  end
  local chars = {}
  for i = n, 1, -1 do
    chars[#chars + 1] = string.char(48 + out[i])
  end
  return table.concat(chars)
end

local function mag_add(a, b)
  local out, carry = {}, 0
  local i, j = #a, #b
  while i > 0 or j > 0 or carry > 0 do
    local d = carry
    if i > 0 then d = d + string.byte(a, i) - 48 end
    if j > 0 then d = d + string.byte(b, j) - 48 end
    out[#out + 1] = d % 10
    carry = math.floor(d / 10)
    i, j = i - 1, j - 1
  end
  return digits_text(out)
end

-- a >= b
local function mag_sub(a, b)
  local out, borrow = {}, 0
  local i, j = #a, #b
  while i > 0 do
    local d = string.byte(a, i) - 48 - borrow
    if j > 0 then d = d - (string.byte(b, j) - 48) end
    if d < 0 then
      d, borrow = d + 10, 1
    else
      borrow = 0
    end
    out[#out + 1] = d
    i, j = i - 1, j - 1
  end
  return digits_text(out)
end

local function int_add(x, y)
  if x.neg == y.neg then
    return { neg = x.neg, mag = mag_add(x.mag, y.mag) }
  end
  local c = mag_cmp(x.mag, y.mag)
  if c == 0 then
    return { neg = false, mag = '0' }
  end
  if c > 0 then
    return { neg = x.neg, mag = mag_sub(x.mag, y.mag) }
  end
  return { neg = y.neg, mag = mag_sub(y.mag, x.mag) }
end

local function int_cmp(x, y)
  if x.neg ~= y.neg then
    return x.neg and -1 or 1
  end
  local c = mag_cmp(x.mag, y.mag)
  if x.neg then
    return -c
  end
  return c
end

local function int_text(x)
  if x.neg and x.mag ~= '0' then
    return '-' .. x.mag
  end
  return x.mag
end

local ncond = tonumber(ARGV[2])
local nmut = tonumber(ARGV[3 + ncond * 3])
local first_mut = 4 + ncond * 3

-- A mutated key's record (a hash whose version, if any, is decimal), its history, and the name
-- its current version would be kept under: an error text, or nil.
local function record_layout_error(sha)
  local rk = rec_key(sha)
  local bad = layout_error(rk, 'hash') or layout_error(hist_key(sha), 'zset')
  if bad then
    return bad
  end
  local ver = redis.call('HGET', rk, 'ver')
  if not ver then
    return nil
  end
  if not string.match(ver, '^[1-9]%d*$') or #ver > 16 then
    return 'LAYOUT ' .. rk .. ' has a version that is not a positive decimal; nothing was changed'
  end
  return layout_error(old_key(sha, ver), 'hash')
end

-- 0. The layout: every key this write may write or read after its first write (docs/redis.md,
-- "No partial effect"). Nothing has changed yet; after this no command can fail.
local problem = shared_layout_error() or sequence_error(seq_key, nmut)
for i = 1, ncond do
  problem = problem or layout_error(rec_key(ARGV[3 + (i - 1) * 3 + 1]), 'hash')
end
for i = 1, nmut do
  problem = problem or record_layout_error(ARGV[first_mut + (i - 1) * 6 + 1])
end
if problem then
  return redis.error_reply(problem)
end

-- 1. Every condition, before anything changes.
local pos = 3
for i = 1, ncond do
  local kind, sha, expected = ARGV[pos], ARGV[pos + 1], ARGV[pos + 2]
  pos = pos + 3
  local ver = redis.call('HGET', rec_key(sha), 'ver')
  if kind == 'v' then
    if not ver or ver ~= expected then
      return { 'conflict', now, 'v', i - 1 }
    end
  elseif ver then
    return { 'conflict', now, 'v', i - 1 }
  end
end

-- 2. Every increment's result, before anything changes.
local counters = {}
for i = 1, nmut do
  local p = first_mut + (i - 1) * 6
  if ARGV[p] == 'i' then
    local current = redis.call('HGET', rec_key(ARGV[p + 1]), 'v')
    local value = int_parse(current or '0')
    if value == nil then
      return { 'badcounter', now, i - 1 }
    end
    local result = int_add(value, int_parse(ARGV[p + 3]))
    if int_cmp(result, int_parse(ARGV[p + 4])) < 0 or int_cmp(result, int_parse(ARGV[p + 5])) > 0 then
      return { 'conflict', now, 'b', i - 1 }
    end
    counters[i] = int_text(result)
  end
end

-- 3. Mutations. Versions come from the namespace-wide sequence; the whole write gets the block
-- (top - nmut, top], and `top` is the sequence at which replaced versions stop being current.
scans_clean(now)
local min_snap, max_snap = snapshot_bounds()
local top = redis.call('INCRBY', seq_key, nmut)
local out = { 'applied', now }
for i = 1, nmut do
  local p = first_mut + (i - 1) * 6
  local kind, sha, member = ARGV[p], ARGV[p + 1], ARGV[p + 2]
  local rk = rec_key(sha)
  local version = dstr(top - nmut + i)
  local old_ver = redis.call('HGET', rk, 'ver')
  if old_ver and max_snap ~= nil and tonumber(old_ver) <= max_snap then
    -- An open scan may still need the replaced version: keep it until no scan can see it.
    local ok = old_key(sha, old_ver)
    redis.call('COPY', rk, ok, 'REPLACE')
    redis.call('HSET', ok, 'd', dstr(top))
    redis.call('ZADD', hist_key(sha), old_ver, old_ver)
    redis.call('ZADD', gcq_key, dstr(top), member)
  end
  if kind == 'p' then
    redis.call('HSET', rk, 'v', ARGV[p + 3], 'ver', version)
    redis.call('ZADD', idx_key, 0, member)
    out[#out + 1] = version
    out[#out + 1] = '0'
  elseif kind == 'i' then
    redis.call('HSET', rk, 'v', counters[i], 'ver', version)
    redis.call('ZADD', idx_key, 0, member)
    out[#out + 1] = version
    out[#out + 1] = counters[i]
  else
    if old_ver then
      redis.call('UNLINK', rk)
    end
    out[#out + 1] = '0'
    out[#out + 1] = '0'
  end
  settle_key(member, purge_history(sha, min_snap, 32))
end
collect(min_snap, 8)
return out
