-- Republic assault_round table=pitched_battle attacker_grade=veteran defender_grade=average,
-- its difference: d10 each side; the Pitched Battle panic hits are given only for a
-- difference of 6, every other difference reaches a '?' of the text.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function()
  local a, d = random(10), random(10)
  if a - d == 6 then return 6 end
  return "not_given"
end)
