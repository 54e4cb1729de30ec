nums := []int{1, 2, 3}
for i, n := range nums {
	fmt.Println(n)
}
