func sum(nums ...int) int {
	total := 0
	for _, n := range nums {
		total += n
	}
	return total
}

fmt.Println(sum())
fmt.Println(sum(1, 2, 3))
values := []int{10, 20, 30}
fmt.Println(sum(values...))
