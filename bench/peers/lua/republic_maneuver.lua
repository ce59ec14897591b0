-- Republic maneuver_roll division_commander=energetic proficient_within_2=1: d10 + 2.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function() return random(10) + 2 end)
