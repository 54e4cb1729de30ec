package main

import "fmt"

func bubbleSort(arr []int) []int {
	n := len(arr)
	for i := 0; i < n-1; i++ {
		swapped := false
		for j := 0; j < n-i-1; j++ {
			if arr[j] > arr[j+1] {
				arr[j], arr[j+1] = arr[j+1], arr[j]
				swapped = true
			}
		}
		if !swapped {
			break
		}
	}
	return arr
}

func quickSort(a []int) []int {
	if len(a) < 2 {
		return a
	}
	pivot := a[len(a)/2]
	var less, equal, greater []int
	for _, v := range a {
		switch {
		case v < pivot:
			less = append(less, v)
		case v == pivot:
			equal = append(equal, v)
		default:
			greater = append(greater, v)
		}
	}
	result := append(quickSort(less), equal...)
	return append(result, quickSort(greater)...)
}

func mergeSort(a []int) []int {
	if len(a) <= 1 {
		return a
	}
	mid := len(a) / 2
	l, r := mergeSort(a[:mid]), mergeSort(a[mid:])
	out := make([]int, 0, len(a))
	i, j := 0, 0
	for i < len(l) && j < len(r) {
		if l[i] <= r[j] {
			out = append(out, l[i])
			i++
		} else {
			out = append(out, r[j])
			j++
		}
	}
	out = append(out, l[i:]...)
	return append(out, r[j:]...)
}

func main() {
	data := []int{64, 34, 25, 12, 22, 11, 90, 5}
	fmt.Println("Original:", data)
	fmt.Println("Quick:   ", quickSort(data))
	fmt.Println("Merge:   ", mergeSort(data))
	fmt.Println("Bubble:  ", bubbleSort(data))
	fmt.Println("Original:", data)
}
