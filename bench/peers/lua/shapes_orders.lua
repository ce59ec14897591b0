-- bench/shapes.muster union_moves: a cup of 12 Union and 12 Confederate order dice,
-- drawn one at a time without putting back; the Union dice drawn before the third
-- Confederate one.
package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
local random = math.random
require("common").run(function()
  local left_union, left, rebels, moves = 12, 24, 0, 0
  while rebels < 3 do
    if random(left) <= left_union then
      left_union = left_union - 1
      moves = moves + 1
    else
      rebels = rebels + 1
    end
    left = left - 1
  end
  return moves
end)
