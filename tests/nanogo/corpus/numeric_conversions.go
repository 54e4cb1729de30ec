package main

import "fmt"

func main() {
	var i int = 300
	fmt.Println(int8(i), uint8(i), int16(i))
	var n int = -1
	fmt.Println(uint8(n), uint16(n), uint32(n), uint64(n))
	var f float64 = 3.99
	g := -3.99
	fmt.Println(int(f), int(g))
	var r rune = 'A'
	fmt.Println(r, string(r), byte(r))
	b := byte(66)
	fmt.Println(b, string(rune(b)))
	x := 65
	fmt.Println(string(rune(x)))
	fmt.Println(float64(7) / 2, float32(0.1)+float32(0.2))
	var u8 uint8 = 250
	fmt.Println(int(u8) + 10, u8 + 10)
}
