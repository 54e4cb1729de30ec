package main

import "fmt"

func main() {
	nums := []int{1, 2}
	nums = append(nums, "3")
	fmt.Println(nums)
}
