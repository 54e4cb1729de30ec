package main

import "fmt"

func binarySearch(arr []int, target int) int {
	lo, hi := 0, len(arr)-1
	for lo <= hi {
		mid := lo + (hi-lo)/2
		switch {
		case arr[mid] == target:
			return mid
		case arr[mid] < target:
			lo = mid + 1
		default:
			hi = mid - 1
		}
	}
	return -1
}

func main() {
	arr := []int{1, 3, 5, 7, 9, 11, 13, 15}
	for _, t := range []int{7, 1, 15, 4, 100} {
		fmt.Printf("search %d -> index %d\n", t, binarySearch(arr, t))
	}
}
