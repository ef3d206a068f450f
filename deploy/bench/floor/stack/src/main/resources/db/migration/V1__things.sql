create table things (id varchar(64) primary key, name text not null);
