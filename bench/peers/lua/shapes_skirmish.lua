-- bench/shapes.muster skirmish_fire figures=8 target_figures=9: 8 d6, 5+ hits; half the
-- hits, rounded up, are figures lost; a third of the 9 figures or more falls back.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function()
  local hits = 0
  for _ = 1, 8 do if random(6) >= 5 then hits = hits + 1 end end
  local lost = (hits + 1) // 2
  if lost * 3 >= 9 then return "falls_back" end
  if lost > 0 then return "casualties" end
  return "no_effect"
end)
