-- examples/attack-dice.muster damage red=3 agility=2 black=1: three red eight-sided dice
-- (3 hit, 1 crit, 2 focus, 2 blank) and a black six-sided one (2 hit, 2 crit, 2 blank);
-- hits and crits score; two white eight-sided dice (3 evade, 2 focus, 3 blank), each
-- evade cancels a hit; the damage is what is left, at least 0.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function()
  local hits, evades = 0, 0
  for _ = 1, 3 do if random(8) <= 4 then hits = hits + 1 end end
  if random(6) <= 4 then hits = hits + 1 end
  for _ = 1, 2 do if random(8) <= 3 then evades = evades + 1 end end
  local left = hits - evades
  if left < 0 then left = 0 end
  return left
end)
