-- examples/average-die.muster volley battalions=2 range=close target=line: two average
-- dice (2, 3, 3, 4, 4, 5) added up, +2 close range; ..4 none, 5..7 one,
-- 8..10 two, 11.. three.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
local average = { 2, 3, 3, 4, 4, 5 }
require("common").run(function()
  local total = 2
  for _ = 1, 2 do total = total + average[random(6)] end
  if total <= 4 then return "none" end
  if total <= 7 then return "one" end
  if total <= 10 then return "two" end
  return "three"
end)
