fmt.Println("waiting forever")
select {}
