-- REBS melee_roll attacker_md=4 defender_md=3, its result: each side rolls its Melee Dice,
-- 4+ hits, more hits wins; the loser falls back D3 (a d3 rolled, as the procedure does).
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function()
  local a, d = 0, 0
  for _ = 1, 4 do if random(6) >= 4 then a = a + 1 end end
  for _ = 1, 3 do if random(6) >= 4 then d = d + 1 end end
  if a > d then
    random(3)
    return "attacker_wins"
  elseif d > a then
    random(3)
    return "defender_wins"
  end
  return "draw"
end)
