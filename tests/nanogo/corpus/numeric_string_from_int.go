package main

import "fmt"

func main() {
	fmt.Println(string(rune(65)), string(rune(0x4E16)), string(rune(-1)))
	n := 66
	fmt.Println(string(rune(n)), fmt.Sprint(n), fmt.Sprintf("%c", n))
	var u uint64 = ^uint64(0)
	fmt.Println(u, u>>63, ^0, ^uint8(3))
	var i int = -1
	fmt.Println(uint32(i), uint(i)>>60)
	x := 0.5
	fmt.Println(int(x*10)/3, int64(x*3))
}
