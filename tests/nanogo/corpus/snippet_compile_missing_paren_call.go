nums := []int{1, 2, 3}
fmt.Println("len:", len(nums)
