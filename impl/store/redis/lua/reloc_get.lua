-- Relocation Store get. KEYS[1]: payload key. ARGV: ns. Returns {now} | {now, payload}.
local now = now_ms()
local payload = redis.call('GET', KEYS[1])
if not payload then
  return { now }
end
return { now, payload }
