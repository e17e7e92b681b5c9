-- Relocation Store put-once. KEYS[1]: payload key. ARGV: ns, payload, retention_ms (0 = keep).
-- Returns {'stored', now} | {'present', now} | {'conflict', now}; a payload key of another type
-- is an error reply and changes nothing.
local now = now_ms()
local problem = layout_error(KEYS[1], 'string')
if problem then
  return redis.error_reply(problem)
end
local current = redis.call('GET', KEYS[1])
if current then
  if current == ARGV[2] then
    return { 'present', now }
  end
  return { 'conflict', now }
end
local retention_ms = tonumber(ARGV[3])
if retention_ms > 0 then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
else
  redis.call('SET', KEYS[1], ARGV[2])
end
return { 'stored', now }
