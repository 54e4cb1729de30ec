result := calculateTotal([]int{1, 2, 3})
fmt.Println(result)
