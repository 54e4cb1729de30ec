package main

import "fmt"

func main() {
	nums := []int{1, 2, 3}
	fmt.Println("first:", nums[0])
	i := 5
	fmt.Println(nums[i])
}
