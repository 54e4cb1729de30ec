label := "count: " + 5
fmt.Println(label)
