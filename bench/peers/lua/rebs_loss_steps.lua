-- REBS fire_loss_steps card=8 band=c: 8d6, 4+ hits, any 6 adds one hit; every 3 hits is a Loss Step.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function()
  local hits, six = 0, false
  for _ = 1, 8 do
    local r = random(6)
    if r >= 4 then hits = hits + 1 end
    if r == 6 then six = true end
  end
  if six then hits = hits + 1 end
  return hits // 3
end)
