nums := []int{10, 5, 0}
for _, d := range nums {
	fmt.Println(100 / d)
}
