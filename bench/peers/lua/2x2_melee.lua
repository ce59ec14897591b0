-- 2x2 melee heavy_cavalry (+2) vs line_infantry (+0): draws rerolled.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function()
  local diff
  repeat diff = (random(6) + 2) - random(6) until diff ~= 0
  if diff >= 4 then return "defender_destroyed_must"
  elseif diff == 3 then return "defender_destroyed"
  elseif diff >= 1 then return "defender_routs"
  elseif diff >= -2 then return "attacker_routs"
  elseif diff == -3 then return "attacker_destroyed"
  else return "attacker_destroyed_must" end
end)
