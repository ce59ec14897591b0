-- Fire and Fury musketry_effect weapon=rm range=close stands=4 (trained): d10 - 1.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function()
  local t = random(10) - 1
  if t >= 11 then return "withering"
  elseif t >= 9 then return "telling_checked"
  elseif t == 8 then return "telling_cold_steel"
  elseif t == 7 then return "telling_home"
  elseif t >= 5 then return "galling"
  elseif t == 4 then return "lively"
  else return "desultory" end
end)
