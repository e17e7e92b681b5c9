-- Location Store read. KEYS[1]: ns seq (routes the call). ARGV: ns, sha. Returns {now} | {now, value, version}.
local now = now_ms()
local rec = redis.call('HMGET', rec_key(ARGV[2]), 'v', 'ver')
if not rec[2] then
  return { now }
end
return { now, rec[1], rec[2] }
