package main

import "fmt"

func main() {
	var a int8 = 127
	a++
	fmt.Println(a)
	var b uint8 = 0
	b--
	fmt.Println(b)
	var c int16 = 32767
	c += 2
	fmt.Println(c)
	var d uint16 = 65535
	d += 10
	fmt.Println(d)
	var e int32 = 2147483647
	e++
	fmt.Println(e)
	var f uint32 = 0
	f -= 1
	fmt.Println(f)
	var g int64 = 9223372036854775807
	g++
	fmt.Println(g)
	var h uint64 = 0
	h--
	fmt.Println(h)
	var i int = 9223372036854775807
	i++
	fmt.Println(i)
	var u uint = 3
	u -= 5
	fmt.Println(u)
}
