package main

import "fmt"

const (
	KB = 1 << (10 * (iota + 1))
	MB
	GB
)

const huge = 1 << 200
const ratio = huge / (1 << 199)

type Bits uint8

const (
	F0 Bits = 1 << iota
	F1
	F2
	F3
)

func main() {
	fmt.Println(KB, MB, GB, ratio)
	flags := F0 | F2
	fmt.Println(flags, flags&F2 != 0, flags&F1 != 0, flags|F3, flags&^F0)
	fmt.Printf("%08b %T\n", flags, flags)
	var x uint8 = 1
	fmt.Println(x<<7, x<<8, int8(-128)>>1, -5>>1, uint32(1)<<31)
	n := 3
	fmt.Println(1<<n, 256>>n, int64(-1)<<63)
	const f = 1.5
	fmt.Println(f*2, int(f*2), f/2)
}
