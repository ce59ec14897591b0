-- Republic assault_round table=pitched_battle attacker_grade=veteran defender_grade=average,
-- the defender's panic hits: d10 each side; the Pitched Battle panic hits (3) are given
-- only for a difference of 6, every other win of the attacker gives a '?' of the text,
-- a draw or a loss none.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function()
  local a, d = random(10), random(10)
  if a - d <= 0 then return 0 end
  if a - d == 6 then return 3 end
  return "not_given"
end)
