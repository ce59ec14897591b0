-- Shared driver: run trial() n times, print "value count" lines, ns/trial on stderr.
local M = {}
function M.run(trial)
  local n = math.tointeger(tonumber(arg[1])) or error("usage: lua NAME.lua TRIALS [SEED]")
  math.randomseed(math.tointeger(tonumber(arg[2] or "1")))
  local counts, order = {}, {}
  local t0 = os.clock()
  for _ = 1, n do
    local v = trial()
    local c = counts[v]
    if c then counts[v] = c + 1 else counts[v] = 1; order[#order + 1] = v end
  end
  io.stderr:write(string.format("%.2f\n", (os.clock() - t0) * 1e9 / n))
  for _, v in ipairs(order) do print(v, counts[v]) end
end
return M
