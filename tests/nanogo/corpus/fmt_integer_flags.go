package main

import "fmt"

func main() {
	fmt.Printf("[%#x] [%#o] [%#b] [%#X]\n", 0, 0, 0, 255)
	fmt.Printf("[%-08d] [%08d] [%+08d] [% 8d]\n", 42, -42, 42, -42)
	fmt.Printf("[%x] [%X] [% x] [%#x]\n", uint64(1)<<63, int64(-1)<<63, 255, -255)
	fmt.Printf("[%c] [%q] [%U] [%#U]\n", 0x110000, 0x110000, 0x1F600, 'x')
	fmt.Printf("[%5c] [%-5q] [%05d] [%.5d]\n", 'é', 'é', -7, 7)
	fmt.Printf("[%d] [%v] [%x] [%o]\n", int8(-5), uint16(65535), int16(-1), uint8(8))
	fmt.Printf("[%T] [%T] [%T]\n", make(<-chan int), make(chan<- string), func(...int) {})
	fmt.Printf("[%v] [%d]\n", []uint8{1, 2}, []int32{-1, 2})
	fmt.Printf("[%b] [%o] [%O]\n", -5, -8, 64)
}
