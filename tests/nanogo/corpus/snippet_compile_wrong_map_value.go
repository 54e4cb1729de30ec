ages := map[string]int{}
ages["bob"] = "thirty"
fmt.Println(ages)
