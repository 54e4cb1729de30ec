package main

import "fmt"

const small int8 = 1000

func main() {
	fmt.Println(small)
}
