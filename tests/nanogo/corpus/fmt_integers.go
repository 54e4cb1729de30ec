package main

import "fmt"

func main() {
	for _, n := range []int{0, 7, -7, 255, 1024} {
		fmt.Printf("%5d %8b %4o %4x %4X %#5x\n", n, n, n, n, n, n)
	}
	var u8 uint8 = 200
	var i8 int8 = -100
	fmt.Printf("%d %d %x %x\n", u8, i8, u8, i8)
	fmt.Printf("%c%c%c %U %#U\n", 71, 111, 0x263A, 'ä', 'ä')
	fmt.Printf("%q %q %+q\n", 'a', '\n', 'é')
	fmt.Printf("%08.3d|%-08d|%+05d\n", 42, 42, -42)
	fmt.Printf("%x %X\n", -255, -255)
	fmt.Printf("%v %d\n", []byte("AB"), []byte("AB"))
	fmt.Printf("%d %v\n", []int{1, 2}, [2]bool{true, false})
	fmt.Printf("%3d|%-3d|%03d\n", []int{1, 22}, []int{1}, []int{5})
}
