-- Relocation Store delete. KEYS[1]: payload key. ARGV: ns. Returns {now, removed 0|1}.
local now = now_ms()
return { now, redis.call('UNLINK', KEYS[1]) }
