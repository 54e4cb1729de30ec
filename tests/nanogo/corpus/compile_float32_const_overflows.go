package main

import "fmt"

func main() {
	var f float32 = 1e39
	fmt.Println(f)
}
