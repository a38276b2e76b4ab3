-- bench/src/bench.lua - the Lua 5.4 workload of bench/run: an interpreter's typical work
-- (calls of Lua and C functions, tables, strings, closures, sorting with a comparator,
-- pattern matching), deterministic, printing a checksum. `lua bench.lua N` does it N times.
local n = tonumber(arg and arg[1]) or 1

local function fib(k)
	if k < 2 then return k end
	return fib(k - 1) + fib(k - 2)
end

local function tables(m)
	local t, s = {}, 0
	for i = 1, m do t[i] = {id = i, name = "item" .. i, v = (i * 7919) % 1000} end
	for _, e in ipairs(t) do s = s + e.v + #e.name end
	local h = {}
	for i = 1, m do h["k" .. (i % 997)] = (h["k" .. (i % 997)] or 0) + i end
	for _, v in pairs(h) do s = s + v % 13 end
	return s
end

local function strings(m)
	local parts = {}
	for i = 1, m do parts[#parts + 1] = string.format("%d:%s", i, string.rep("ab", i % 7)) end
	local text = table.concat(parts, ",")
	local c = 0
	for w in text:gmatch("(%d+):") do c = c + tonumber(w) % 5 end
	return c + #text:gsub("ab", "x")
end

local function sorting(m)
	local a = {}
	local x = 12345
	for i = 1, m do x = (x * 1103515245 + 12345) % 2147483648; a[i] = x end
	table.sort(a, function(p, q) return p % 1000 < q % 1000 or (p % 1000 == q % 1000 and p < q) end)
	return a[1] % 1000 + a[m] % 1000
end

local function closures(m)
	local acc = 0
	local function make(k) return function(y) return y * k + 1 end end
	for i = 1, m do acc = (acc + make(i % 10)(i)) % 1000003 end
	return acc
end

local sum = 0
for _ = 1, n do
	sum = sum + fib(27) + tables(60000) + strings(40000) + sorting(60000) + closures(300000)
end
print(sum)
