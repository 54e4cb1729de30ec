package main

import "fmt"

func main() {
	a, b := 12, 10
	fmt.Println(a&b, a|b, a^b, a&^b, a<<2, a>>2)
	fmt.Println(^a, ^0, -a)
	var u uint8 = 0b10110011
	fmt.Printf("%08b %08b %08b\n", u, ^u, u>>3)
	fmt.Println(0x1F, 0o17, 017, 0b101, 1_000_000)
	var x uint32 = 1
	fmt.Println(x<<31, x<<32>>1)
	s := uint(70)
	fmt.Println(1<<s == 0, int64(1)<<62)
	count := 0
	for v := 255; v > 0; v &= v - 1 {
		count++
	}
	fmt.Println("bits:", count)
}
