count := 5
ratio := 0.5
fmt.Println(count * ratio)
