fmt.Println("Hello from a snippet!")
