-- REBS reorganization state=disordered (no leader, TN 4), the whole ReorgResult:
-- d6; a 6 removes Disordered; a 1 falls back D3+2; 4+ passes; else fails, D3 back.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function()
  local r = random(6)
  if r == 6 then return "nat6_removes_disordered,good_order,0,false" end
  if r == 1 then return "nat1,disordered," .. (random(3) + 2) .. ",false" end
  if r >= 4 then return "passed,disordered,0,false" end
  return "failed,disordered," .. random(3) .. ",false"
end)
