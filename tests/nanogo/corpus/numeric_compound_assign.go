package main

import "fmt"

func main() {
	x := 10
	x += 5
	x -= 3
	x *= 2
	x /= 4
	x %= 4
	fmt.Println(x)
	y := 6
	y <<= 3
	y >>= 1
	y |= 1
	y &= 0xF
	y ^= 0xFF
	y &^= 0x0F
	fmt.Println(y)
	f := 1.5
	f *= 3
	f /= 2
	f -= 0.25
	fmt.Println(f)
	s := "a"
	s += "b"
	s += "c"
	fmt.Println(s)
	var i8 int8 = 100
	i8 += 100
	fmt.Println(i8)
}
