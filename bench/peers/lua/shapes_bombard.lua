-- bench/shapes.muster bombard target=column: d8, a natural 1 rolled again, +1 against a
-- column, read on the Bombardment Effects bands.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function()
  local r
  repeat r = random(8) until r ~= 1
  local t = r + 1
  if t >= 8 then return "two_stands_lost"
  elseif t == 7 then return "stand_lost"
  elseif t >= 5 then return "disordered"
  elseif t >= 3 then return "shaken"
  else return "no_effect" end
end)
