package main

import "fmt"

func main() {
	var arr [4]int
	idx := -1
	for i := range arr {
		arr[i] = i
	}
	idx += len(arr) + 1
	fmt.Println(arr[idx])
}
