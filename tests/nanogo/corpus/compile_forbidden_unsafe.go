package main

import (
	"fmt"
	"unsafe"
)

func main() {
	var x int64
	fmt.Println(unsafe.Sizeof(x))
}
