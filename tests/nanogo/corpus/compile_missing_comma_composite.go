package main

import "fmt"

func main() {
	nums := []int{
		1,
		2
	}
	fmt.Println(nums)
}
