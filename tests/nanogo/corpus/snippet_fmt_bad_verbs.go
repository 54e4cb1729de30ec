name := "Gopher"
age := 13
fmt.Printf("%d is %s years old\n", name, age)
fmt.Printf("%s %s\n", name)
fmt.Printf("%s\n", name, age)
fmt.Println(fmt.Sprintf("%v%%", 50))
fmt.Printf("%.1f\n", age)
