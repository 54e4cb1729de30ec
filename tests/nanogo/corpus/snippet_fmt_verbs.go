type Point struct{ X, Y int }
p := Point{1, 2}
fmt.Printf("%v\n", p)
fmt.Printf("%+v\n", p)
fmt.Printf("%#v\n", p)
fmt.Printf("%T\n", p)
fmt.Printf("%d %x %o %b\n", 255, 255, 255, 255)
fmt.Printf("%f %.2f %e %g\n", 3.14159, 3.14159, 3.14159, 3.14159)
fmt.Printf("%s %q %v\n", "go", "go", "go")
fmt.Printf("%c %U %d\n", 'G', 'G', 'G')
fmt.Printf("%t %v\n", true, nil)
fmt.Printf("%5d|%-5d|%05d\n", 7, 7, 7)
fmt.Printf("%8.3f|%-8.3f|\n", 2.0/3, 2.0/3)
