-- Relocation Store delete. KEYS[1]: payload key. ARGV: ns. Returns {now, removed 0|1}; a payload
-- key of another type is not a payload: an error reply, and it is left alone.
local now = now_ms()
local problem = layout_error(KEYS[1], 'string')
if problem then
  return redis.error_reply(problem)
end
return { now, redis.call('UNLINK', KEYS[1]) }
