module github.com/hermesdesk/hermesdesk

go 1.24
