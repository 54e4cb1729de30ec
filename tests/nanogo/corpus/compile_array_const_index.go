package main

import "fmt"

func main() {
	var arr [3]int
	arr[5] = 1
	fmt.Println(arr)
}
