result := (15.5 * 4) / 2 + 3.25
fmt.Printf("Result: %.2f\n", result)
fmt.Println(2 + 3*4, (2+3)*4, 10/3, 10.0/3, -7/2, -7%2)
