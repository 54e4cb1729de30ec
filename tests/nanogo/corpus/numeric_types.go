package main

import "fmt"

func main() {
	var a byte = 'x'
	var b rune = 'é'
	var c uint = 42
	var d int32 = -7
	var e float32 = 2.5
	var f int64 = -1 << 40
	fmt.Printf("%T %T %T %T %T %T\n", a, b, c, d, e, f)
	fmt.Println(a, b, c, d, e, f)
	var g uint64 = 18446744073709551615
	fmt.Printf("%d %x %T\n", g, g, g)
}
