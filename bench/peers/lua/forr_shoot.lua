-- For Reign or Ruin shoot sht=6 def=4: 6 d10, each above 4 hits.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function()
  local hits = 0
  for _ = 1, 6 do if random(10) > 4 then hits = hits + 1 end end
  return hits
end)
